import { Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import type { CSSProperties, KeyboardEvent, ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@portal/contracts/domain/constants';
import { pageScrollLock } from './scroll-lock';
import './modal.css';
import { useUniqueId } from '../lib/unique-id';

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

export type ModalProps = {
  /** Identifies the modal (spec names: loginPopupModal, helpModal, ...); rendered as data-modal. */
  name: string;
  open: boolean;
  onClose: () => void;
  title?: ReactNode;
  /** Show the close button; Escape then closes too (WAI-ARIA dialog). Outside clicks never close (spec). */
  showClose?: boolean;
  /**
   * Escape closes (onClose): by default when the close button shows. A question with its own Cancel
   * button and no close button (sign out?) says true; a forced step leaves it false.
   */
  closeOnEscape?: boolean;
  /** Freeze the page at its scroll position while open; restored exactly on close. */
  lockScroll?: boolean;
  /** Dim backdrop behind the dialog. */
  background?: boolean;
  /** Minimum width and height of the dialog box in px (it grows with its content, within the viewport). */
  width?: number;
  height?: number;
  /** Duration of the open animation in ms. */
  delay?: number;
  className?: string;
  children?: ReactNode;
};

export function Modal({
  name,
  open,
  onClose,
  title,
  showClose = true,
  closeOnEscape = showClose,
  lockScroll = true,
  background = true,
  width = LIMITS.MODAL_DEFAULT_WIDTH,
  height = LIMITS.MODAL_DEFAULT_HEIGHT,
  delay = LIMITS.MODAL_DEFAULT_DELAY_MS,
  className,
  children,
}: ModalProps) {
  const { t } = useTranslation('common');
  const titleId = useUniqueId('modal-title');
  const boxRef = useRef<HTMLDivElement>(null);

  // A layout effect: the page is frozen before the dialog paints and back at its position as the
  // dialog leaves the DOM (Preact, which the build runs on, defers useEffect cleanups past the frame).
  useLayoutEffect(() => {
    if (!open || !lockScroll) return;
    const lock = pageScrollLock();
    lock.lock();
    return () => lock.unlock();
  }, [open, lockScroll]);

  // Move focus into the dialog and give it back to the opener on close, unless another dialog has
  // taken it meanwhile: a dialog opened from this one (the trial notice's Register opens the register
  // form) lost the focus to this one's opener when this cleanup ran after its open (Preact defers
  // effect cleanups), and Escape then reached the page instead of it.
  useEffect(() => {
    if (!open) return;
    // The body is no opener (a menu item that opened this dialog and closed with its menu left the focus there).
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    const box = boxRef.current;
    box?.focus({ preventScroll: true });
    return () => {
      const active = document.activeElement;
      const elsewhere = active instanceof HTMLElement && active !== document.body && !box?.contains(active) && active.closest('[role="dialog"]') !== null;
      if (elsewhere) return;
      // The opener may be gone (the Log In button once signed in, a link of a dialog that closed): then
      // the page's main region, not wherever the browser lands (a menu link that opened its menu).
      if (opener?.isConnected) opener.focus({ preventScroll: true });
      // Gone, or no longer focusable (hidden with its closed menu): the focus did not move there.
      if (!opener || document.activeElement !== opener) focusMain();
    };
  }, [open]);

  // The focus may fall out of the dialog to the page's body: a focused button disabled while its call
  // ran (the console's Apply adjustment, refused). Escape then reached nothing and the dialog stayed
  // open. Keys pressed with the focus nowhere go to the top dialog: Escape closes it, Tab goes back in.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const closeOnEscapeRef = useRef(closeOnEscape);
  closeOnEscapeRef.current = closeOnEscape;
  useEffect(() => {
    if (!open) return;
    const onStrayKey = (e: globalThis.KeyboardEvent) => {
      const box = boxRef.current;
      if (!box || (document.activeElement !== null && document.activeElement !== document.body)) return;
      const dialogs = document.querySelectorAll('[role="dialog"][aria-modal="true"]');
      if (dialogs[dialogs.length - 1] !== box) return;
      if (e.key === 'Escape' && closeOnEscapeRef.current) {
        e.preventDefault();
        onCloseRef.current();
      } else if (e.key === 'Tab') {
        e.preventDefault();
        box.focus({ preventScroll: true });
      }
    };
    document.addEventListener('keydown', onStrayKey);
    return () => document.removeEventListener('keydown', onStrayKey);
  }, [open]);

  if (!open) return null;

  // Keep Tab inside the dialog (aria-modal): wrap from the last focusable to the first and back.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Escape closes a dialog that can be closed (one without the close button cannot: a forced step). A
    // dialog opened from inside another one handles it first and keeps it from the outer one.
    if (e.key === 'Escape' && closeOnEscape) {
      e.preventDefault();
      e.stopPropagation();
      onClose();
      return;
    }
    wrapTab(e, boxRef.current);
  };

  const style = {
    '--modal-min-w': `${width}px`,
    '--modal-min-h': `${height}px`,
    '--modal-anim': `${delay}ms`,
  } as CSSProperties;

  return createPortal(
    <div className={`modal-layer${background ? ' modal-layer--dim' : ''}`} data-modal-layer={name}>
      <div
        ref={boxRef}
        className={`modal${className ? ` ${className}` : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={title ? titleId : undefined}
        data-modal={name}
        tabIndex={-1}
        style={style}
        onKeyDown={onKeyDown}
      >
        {(title || showClose) && (
          <div className="modal__head">
            {title ? (
              <h2 className="modal__title" id={titleId}>
                {title}
              </h2>
            ) : (
              <span />
            )}
            {showClose && (
              <button type="button" className="modal__close" onClick={onClose} aria-label={t('close')}>
                <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                  <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                </svg>
              </button>
            )}
          </div>
        )}
        {/* A child that suspends (a form field whose texts are not loaded yet) waits here, inside the
            portal: suspending the boundary outside it unmounted the portal, and Preact never put it back
            (the family-exclusion form never opened on its first click). */}
        <div className="modal__body"><Suspense fallback={<div className="page-spinner" aria-hidden="true" />}>{children}</Suspense></div>
      </div>
    </div>,
    document.body,
  );
}

/** Keep Tab inside a dialog (aria-modal) `box`: wrap from its last focusable to its first and back. */
export function wrapTab(e: KeyboardEvent<HTMLElement>, box: HTMLElement | null): void {
  if (e.key !== 'Tab' || !box) return;
  const focusables = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hasAttribute('disabled'));
  const first = focusables[0];
  const last = focusables.at(-1);
  if (!first || !last) {
    e.preventDefault();
    return;
  }
  const active = document.activeElement;
  if (e.shiftKey && (active === first || active === box || !box.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !box.contains(active))) {
    e.preventDefault();
    first.focus();
  }
}

/** The page's main region (main-layout's <main id="main">), focusable by script only; the body when there is none. */
export function focusMain() {
  const main = document.getElementById('main') ?? document.querySelector('main');
  if (!main) return;
  if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
  main.focus({ preventScroll: true });
}
