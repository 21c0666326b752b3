import * as React from 'react';
import { Slot } from 'radix-ui';
import { cn } from '@/lib/utils';

/*
 * Tooltips in two parts, so that a page with many of them (a brand's 1,000 opportunity cards) stays
 * cheap and a first visit carries no positioning code:
 * - here, on plain elements: Radix Tooltip's open/close logic (the 700 ms delay, the 300 ms
 *   skip-delay window shared through the provider, focus opens at once, pointer-down, click, blur,
 *   Escape, scrolling and another tooltip opening close it) and the trigger's aria-describedby;
 * - ./tooltip-popup (its own chunk, fetched when a pointer or focus first reaches a trigger): the
 *   popup itself, on Radix's Popper (floating-ui) and DismissableLayer, with role="tooltip".
 */

// spec §4/§9: tooltips open after 700 ms; skip-delay window 300 ms
const DELAY_MS = 700;
const SKIP_DELAY_MS = 300;
/** How long the pointer has to travel from the trigger onto the tooltip before it closes. */
const GRACE_MS = 100;
const TOOLTIP_OPEN = 'byline:tooltip-open';

const loadPopup = () => import('./tooltip-popup');
const TooltipPopup = React.lazy(loadPopup);

interface ProviderValue {
  isOpenDelayedRef: React.RefObject<boolean>;
  onOpen: () => void;
  onClose: () => void;
}

function useProviderValue(): ProviderValue {
  const isOpenDelayedRef = React.useRef(true);
  const skipTimer = React.useRef(0);
  React.useEffect(() => () => window.clearTimeout(skipTimer.current), []);
  return React.useMemo(
    () => ({
      isOpenDelayedRef,
      onOpen: () => {
        window.clearTimeout(skipTimer.current);
        isOpenDelayedRef.current = false;
      },
      onClose: () => {
        window.clearTimeout(skipTimer.current);
        skipTimer.current = window.setTimeout(() => (isOpenDelayedRef.current = true), SKIP_DELAY_MS);
      },
    }),
    [],
  );
}

const ProviderContext = React.createContext<ProviderValue | null>(null);

export function TooltipProvider({ children }: { children: React.ReactNode }) {
  return <ProviderContext.Provider value={useProviderValue()}>{children}</ProviderContext.Provider>;
}

type State = 'closed' | 'delayed-open' | 'instant-open';
interface TooltipValue {
  open: boolean;
  state: State;
  contentId: string;
  /** the trigger, known once it has been approached (not set on mount: 1,000 cards stay one render) */
  trigger: HTMLElement | null;
  onTriggerEnter: (trigger: HTMLElement) => void;
  onTriggerLeave: () => void;
  onContentEnter: () => void;
  onOpen: (trigger: HTMLElement) => void;
  onClose: () => void;
}
const TooltipContext = React.createContext<TooltipValue | null>(null);

function useTooltip(part: string): TooltipValue {
  const ctx = React.useContext(TooltipContext);
  if (!ctx) throw new Error(`${part} must be used inside Tooltip`);
  return ctx;
}

export function Tooltip({ children }: { children: React.ReactNode }) {
  const provider = React.useContext(ProviderContext);
  if (!provider) throw new Error('Tooltip must be used inside TooltipProvider');
  const [state, setState] = React.useState<State>('closed');
  const [trigger, setTrigger] = React.useState<HTMLElement | null>(null);
  const contentId = React.useId();
  const openRef = React.useRef(false);
  const openTimer = React.useRef(0);
  const closeTimer = React.useRef(0);

  const value = React.useMemo<TooltipValue>(() => {
    const clearTimers = () => {
      window.clearTimeout(openTimer.current);
      window.clearTimeout(closeTimer.current);
    };
    const setOpen = (open: boolean, delayed = false) => {
      clearTimers();
      if (openRef.current === open) return;
      openRef.current = open;
      if (open) {
        provider.onOpen();
        document.dispatchEvent(new CustomEvent(TOOLTIP_OPEN));
      } else provider.onClose();
      setState(open ? (delayed ? 'delayed-open' : 'instant-open') : 'closed');
    };
    const onOpen = (el: HTMLElement) => {
      void loadPopup();
      setTrigger(el);
      setOpen(true);
    };
    const onClose = () => setOpen(false);
    return {
      open: state !== 'closed',
      state,
      contentId,
      trigger,
      onOpen,
      onClose,
      onTriggerEnter: (el) => {
        if (!provider.isOpenDelayedRef.current) return onOpen(el);
        // the popup's code loads during the delay
        void loadPopup();
        setTrigger(el);
        clearTimers();
        openTimer.current = window.setTimeout(() => setOpen(true, true), DELAY_MS);
      },
      onTriggerLeave: () => {
        window.clearTimeout(openTimer.current);
        // the pointer may be on its way onto the tooltip (it stays open while hovered)
        if (openRef.current) closeTimer.current = window.setTimeout(onClose, GRACE_MS);
      },
      onContentEnter: () => window.clearTimeout(closeTimer.current),
    };
  }, [provider, state, contentId, trigger]);

  const { open, onClose } = value;
  React.useEffect(() => () => {
    window.clearTimeout(openTimer.current);
    window.clearTimeout(closeTimer.current);
  }, []);
  React.useEffect(() => {
    if (!open) return;
    // another tooltip opening, or a scroll that moves the trigger, closes this one
    const onScroll = (e: Event) => {
      if (e.target instanceof Node && trigger && e.target.contains(trigger)) onClose();
    };
    document.addEventListener(TOOLTIP_OPEN, onClose);
    window.addEventListener('scroll', onScroll, { capture: true });
    return () => {
      document.removeEventListener(TOOLTIP_OPEN, onClose);
      window.removeEventListener('scroll', onScroll, { capture: true });
    };
  }, [open, onClose, trigger]);

  return <TooltipContext.Provider value={value}>{children}</TooltipContext.Provider>;
}

export function TooltipTrigger({
  asChild,
  onPointerMove,
  onPointerLeave,
  onPointerDown,
  onFocus,
  onBlur,
  onClick,
  ...props
}: React.ComponentProps<'button'> & { asChild?: boolean }) {
  const ctx = useTooltip('TooltipTrigger');
  const pointerDown = React.useRef(false);
  const entered = React.useRef(false);
  const Comp = asChild ? Slot.Root : 'button';
  // as Radix: the caller's handler first; preventDefault() there skips the tooltip's
  return (
    <Comp
      aria-describedby={ctx.open ? ctx.contentId : undefined}
      data-state={ctx.state}
      {...props}
      onPointerMove={(e) => {
        onPointerMove?.(e);
        if (e.defaultPrevented || e.pointerType === 'touch' || entered.current) return;
        entered.current = true;
        ctx.onTriggerEnter(e.currentTarget);
      }}
      onPointerLeave={(e) => {
        onPointerLeave?.(e);
        if (e.defaultPrevented) return;
        entered.current = false;
        ctx.onTriggerLeave();
      }}
      onPointerDown={(e) => {
        onPointerDown?.(e);
        if (e.defaultPrevented) return;
        if (ctx.open) ctx.onClose();
        pointerDown.current = true;
        document.addEventListener('pointerup', () => (pointerDown.current = false), { once: true });
      }}
      onFocus={(e) => {
        onFocus?.(e);
        if (!e.defaultPrevented && !pointerDown.current) ctx.onOpen(e.currentTarget);
      }}
      onBlur={(e) => {
        onBlur?.(e);
        if (!e.defaultPrevented) ctx.onClose();
      }}
      onClick={(e) => {
        onClick?.(e);
        if (!e.defaultPrevented) ctx.onClose();
      }}
    />
  );
}

export function TooltipContent({
  className,
  side = 'top',
  sideOffset = 4,
  children,
}: {
  className?: string;
  side?: 'top' | 'right' | 'bottom' | 'left';
  sideOffset?: number;
  children: React.ReactNode;
}) {
  const ctx = useTooltip('TooltipContent');
  if (!ctx.open || !ctx.trigger) return null;
  return (
    <React.Suspense fallback={null}>
      <TooltipPopup
        anchor={ctx.trigger}
        id={ctx.contentId}
        side={side}
        sideOffset={sideOffset}
        state={ctx.state}
        onClose={ctx.onClose}
        onPointerEnter={ctx.onContentEnter}
        onPointerLeave={ctx.onClose}
        className={cn('z-50 max-w-xs rounded-md bg-foreground px-3 py-1.5 text-xs text-background shadow', className)}
      >
        {children}
      </TooltipPopup>
    </React.Suspense>
  );
}
