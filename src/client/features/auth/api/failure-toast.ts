import { toast, type ToastInput } from '@/components/ui/use-toast';

let shown: { dismiss: () => void } | null = null;

/**
 * The auth page's failure toast (a refused sign-in or sign-up): one at a time, and taken down when
 * the user switches to the other tab, where it would read as that form's failure (issue 43).
 */
export function showAuthFailure(input: ToastInput) {
  shown?.dismiss();
  shown = toast({ ...input, variant: 'destructive' });
}

export function dismissAuthFailure() {
  shown?.dismiss();
  shown = null;
}
