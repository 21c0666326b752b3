import * as React from 'react';

// spec §9: at most one toast at a time; a dismissed toast is removed after 1,000,000 ms
const TOAST_LIMIT = 1;
const TOAST_REMOVE_DELAY = 1_000_000;

export interface ToastInput {
  title?: React.ReactNode;
  description?: React.ReactNode;
  variant?: 'default' | 'destructive';
}
export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
  /** the page it was raised on, and when */
  path: string;
  at: number;
}

let toasts: ToastItem[] = [];
const listeners = new Set<(t: ToastItem[]) => void>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();
let count = 0;

function emit() {
  for (const l of listeners) l(toasts);
}

export function dismissToast(id?: string) {
  toasts = toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t));
  for (const t of toasts) {
    if (!t.open && !removeTimers.has(t.id)) {
      removeTimers.set(
        t.id,
        setTimeout(() => {
          removeTimers.delete(t.id);
          toasts = toasts.filter((x) => x.id !== t.id);
          emit();
        }, TOAST_REMOVE_DELAY),
      );
    }
  }
  emit();
}

// a toast raised just before the page changes announces that change ("Sold out", then Payment History)
const ANNOUNCES_NAVIGATION_MS = 500;

/**
 * An error belongs to the page it happened on: once the user has gone to another page it would
 * read as that page's failure. Dismisses open error toasts raised on another page than `path`
 * (unless raised a moment ago, with the navigation); other toasts (a submitted brief, a payment
 * received) are news the user should see where they land.
 */
export function dismissErrorToastsAway(path: string) {
  const now = Date.now();
  for (const t of toasts) {
    if (t.open && t.variant === 'destructive' && t.path !== path && now - t.at > ANNOUNCES_NAVIGATION_MS) dismissToast(t.id);
  }
}

export function toast(input: ToastInput) {
  const id = String(++count);
  toasts = [{ ...input, id, open: true, path: window.location.pathname, at: Date.now() }, ...toasts].slice(0, TOAST_LIMIT);
  emit();
  return { id, dismiss: () => dismissToast(id) };
}

export function useToasts(): ToastItem[] {
  const [state, setState] = React.useState(toasts);
  React.useEffect(() => {
    listeners.add(setState);
    return () => {
      listeners.delete(setState);
    };
  }, []);
  return state;
}
