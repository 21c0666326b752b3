import * as React from 'react';
import { createPortal } from 'react-dom';
import { DismissableLayer, Popper } from 'radix-ui/internal';

/**
 * The open tooltip, placed beside its trigger by Radix's Popper (flips and shifts to stay on
 * screen); Escape or a pointer-down elsewhere closes it. Loaded on demand by ./tooltip.
 */
export default function TooltipPopup({
  anchor,
  id,
  side,
  sideOffset,
  state,
  onClose,
  className,
  onPointerEnter,
  onPointerLeave,
  children,
}: {
  anchor: HTMLElement;
  id: string;
  side: 'top' | 'right' | 'bottom' | 'left';
  sideOffset: number;
  state: string;
  onClose: () => void;
  className: string;
  onPointerEnter: () => void;
  onPointerLeave: () => void;
  children: React.ReactNode;
}) {
  const anchorRef = React.useMemo(() => ({ current: anchor }), [anchor]);
  return (
    <Popper.Root>
      <Popper.Anchor virtualRef={anchorRef} />
      {createPortal(
        <DismissableLayer.Root
          asChild
          disableOutsidePointerEvents={false}
          onFocusOutside={(e) => e.preventDefault()}
          onDismiss={onClose}
        >
          <Popper.Content
            role="tooltip"
            id={id}
            data-state={state}
            side={side}
            sideOffset={sideOffset}
            className={className}
            onPointerEnter={onPointerEnter}
            onPointerLeave={onPointerLeave}
            style={{ '--radix-tooltip-content-transform-origin': 'var(--radix-popper-transform-origin)' } as React.CSSProperties}
          >
            {children}
          </Popper.Content>
        </DismissableLayer.Root>,
        document.body,
      )}
    </Popper.Root>
  );
}
