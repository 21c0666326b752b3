import * as React from 'react';

/**
 * Focus on the page's `main` (the skip link's target, and where a lost focus goes). It is made
 * focusable only for that moment: a main that kept tabindex="-1" would take the focus of every
 * click on its empty space.
 */
export function focusMain(options?: FocusOptions) {
  const main = document.getElementById('main') ?? document.querySelector('main');
  if (!main) return;
  if (!main.hasAttribute('tabindex')) {
    main.setAttribute('tabindex', '-1');
    main.addEventListener('blur', () => main.removeAttribute('tabindex'), { once: true });
  }
  main.focus(options);
}

/**
 * Where focus goes when a dialog or sheet closes: back to the element that had it when the dialog
 * opened. Radix gives it back only to its own Trigger, and most of our dialogs open from a button
 * that sets state (a card, Mark Published, Request Edits): without this the focus fell to <body>
 * and a keyboard user started again from the top of the page. When that element is gone (the
 * card moved to another tab, a menu item closed with its menu), focus goes to `main`.
 */
export function useReturnFocus({
  onOpenAutoFocus,
  onCloseAutoFocus,
}: {
  onOpenAutoFocus?: (event: Event) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const opener = React.useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      // called before the dialog moves focus into itself: the opener still has it
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      event.preventDefault();
      const target = opener.current;
      opener.current = null;
      if (target?.isConnected && !target.closest('[inert]')) {
        target.focus();
        if (document.activeElement === target) return;
      }
      focusMain({ preventScroll: true });
    },
  };
}
