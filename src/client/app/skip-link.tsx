import { focusMain } from '@/components/ui/return-focus';

/**
 * "Skip to content": the first thing Tab reaches on every page (the test-mode banner above it is
 * text only), shown only while focused. It moves the focus into `main`, so the next Tab lands on
 * the page's first control instead of walking through the sidebar again.
 */
export function SkipLink() {
  return (
    <a
      href="#main"
      onClick={(e) => {
        e.preventDefault();
        focusMain();
      }}
      className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-[100] focus:rounded-md focus:bg-background focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-foreground focus:shadow-lg focus:outline-none focus:ring-2 focus:ring-ring"
    >
      Skip to content
    </a>
  );
}
