import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { TGrabValue, TOpenEnvelope } from '@portal/contracts/api/red-envelopes';
import { ErrorCode } from '@portal/contracts/api/errors';
import { isApiError } from '../../../lib/api';
import { errorKey } from '../../../lib/error-key';
import { useRgExclusion } from '../../../lib/rg-exclusion';
import { useMoney } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { useAuth } from '../../auth/hooks/use-auth';
import { useSingleFlight } from '../../../lib/single-flight';
import { focusMain, wrapTab } from '../../../ui/modal';
import { useGrabEnvelope, useOpenEnvelopes, useUpdateOpenEnvelopes, withEnvelope, withLeft, withoutEnvelope } from '../api/envelopes';
import './envelopes.css';

/** Codes after which the envelope is of no more use to this player: it leaves the screen. */
const GONE = new Set<string>([ErrorCode.ENVELOPE_EXPIRED, ErrorCode.ENVELOPE_EMPTY, ErrorCode.ENVELOPE_ALREADY_GRABBED, ErrorCode.ENVELOPE_NOT_ELIGIBLE, ErrorCode.NOT_FOUND]);

/** The operator's message in the page's language, else the other one, else our own greeting. */
export function envelopeMessage(m: TOpenEnvelope['message'], lang: string): string | null {
  return (lang.toUpperCase() === 'TY' ? m.ty ?? m.en : m.en ?? m.ty) || null;
}

/**
 * Who sees envelopes float in: a signed-in real player. Not an excluded one: they are not marketed to and
 * the grab is refused (RG_EXCLUDED), yet an envelope dropped to every player reaches them too (its event
 * goes to the whole merchant room), which offered them a grab that could only fail.
 */
export function showsEnvelopes(p: { isLogin: boolean; isTrial: boolean; isExcluded: boolean }): boolean {
  return p.isLogin && !p.isTrial && !p.isExcluded;
}

/**
 * Red envelopes on every page of a signed-in player: one floats in when an operator drops it
 * (`envelope.dropped`), the ones still open are there on load, and a tap opens it and grabs a share.
 */
export function EnvelopeHost() {
  const { isLogin, isTrial } = useAuth();
  const enabled = showsEnvelopes({ isLogin, isTrial, isExcluded: useRgExclusion() !== null });
  const open = useOpenEnvelopes(enabled);
  const update = useUpdateOpenEnvelopes();
  // The dialog keeps the envelope it opened: the open list drops it once grabbed, the dialog still shows it.
  const [opened, setOpened] = useState<TOpenEnvelope | null>(null);
  // Tucked to a small tab at the screen's edge by the player: the envelope covered buttons and table rows
  // under it (the back office's row actions at 390 and 1366 px). A tap on the tab brings it back.
  const [isTucked, setTucked] = useState(false);
  // A closed dialog gives the focus back to the envelope that opened it (the button is drawn again once
  // the dialog is gone, or the next envelope's in its place), else to the page's main region.
  const floatRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (opened !== null) {
      wasOpen.current = true;
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    if (floatRef.current) floatRef.current.focus({ preventScroll: true });
    else focusMain();
  }, [opened]);
  // Envelopes that ended while on screen (expired, or every share taken by others): an open dialog says
  // so instead of offering Open. The open list drops them, so the dialog cannot read it there.
  const [ended, setEnded] = useState<ReadonlyMap<string, 'expired' | 'taken'>>(() => new Map());
  const end = (id: string, why: 'expired' | 'taken') => setEnded((m) => new Map(m).set(id, why));
  useRealtimeEvent('envelope.dropped', (env) => update((l) => withEnvelope(l, env.payload)));
  useRealtimeEvent('envelope.closed', (env) => {
    update((l) => withoutEnvelope(l, env.payload.envelopeId));
    end(env.payload.envelopeId, 'expired');
  });
  useRealtimeEvent('envelope.grabbed', (env) => update((l) => withoutEnvelope(l, env.payload.envelopeId)));
  // The live count as others grab (throttled by the server: at most one per envelope per 500 ms).
  useRealtimeEvent('envelope.left', (env) => {
    update((l) => withLeft(l, env.payload.envelopeId, env.payload.left));
    if (env.payload.left <= 0) end(env.payload.envelopeId, 'taken');
  });
  const list = enabled ? open.data?.list ?? [] : [];
  const { t } = useTranslation('envelopes');
  const next = list[0];
  if (!enabled) return null;
  return createPortal(
    <>
      {next && opened === null && isTucked && (
        <button type="button" className="rp-tab" onClick={() => setTucked(false)} aria-label={t('show')} title={t('show')} data-testid="envelope-tab">
          <span className="rp-tab__art" aria-hidden="true" />
          <span className="rp-tab__count">{list.length}</span>
        </button>
      )}
      {next && opened === null && !isTucked && (
        <div className="rp-float-box">
          <button key={next.envelopeId} ref={floatRef} type="button" className="rp-float" onClick={() => setOpened(next)} data-testid="envelope-float" data-envelope-id={next.envelopeId}>
            <EnvelopeArt />
            <FloatLabel count={list.length} left={next.left} />
          </button>
          <button type="button" className="rp-float__tuck" onClick={() => setTucked(true)} aria-label={t('tuck')} title={t('tuck')} data-testid="envelope-tuck">
            ›
          </button>
        </div>
      )}
      {opened !== null && (
        <EnvelopeDialog
          key={opened.envelopeId}
          envelope={opened}
          left={list.find((x) => x.envelopeId === opened.envelopeId)?.left ?? null}
          envelopeId={opened.envelopeId}
          isExpired={ended.get(opened.envelopeId) === 'expired'}
          isTaken={ended.get(opened.envelopeId) === 'taken'}
          onGone={(id) => update((l) => withoutEnvelope(l, id))}
          onClose={() => setOpened(null)}
        />
      )}
    </>,
    document.body,
  );
}

function FloatLabel({ count, left }: { count: number; left: number }) {
  const { t } = useTranslation('envelopes');
  return (
    <span className="rp-float__label">
      {t('tap_to_grab')}
      <span className="rp-float__left" data-testid="envelope-left" data-left={left}>{t('left', { count: left })}</span>
      {count > 1 && <span className="rp-float__count" data-testid="envelope-count">{count}</span>}
    </span>
  );
}

function EnvelopeArt({ isOpen = false }: { isOpen?: boolean }) {
  return (
    <span className={`rp-art${isOpen ? ' is-open' : ''}`} aria-hidden="true">
      <span className="rp-art__flap" />
      <span className="rp-art__seal" />
    </span>
  );
}

/** Why an open dialog's envelope can no longer be grabbed (its error text key), or null: expired, or every share taken. */
export function endedOf(isExpired: boolean, left: number | null): 'error_ENVELOPE_EXPIRED' | 'error_ENVELOPE_EMPTY' | null {
  return isExpired ? 'error_ENVELOPE_EXPIRED' : left === 0 ? 'error_ENVELOPE_EMPTY' : null;
}

/**
 * What the dialog shows: the share won (it stays, even when a duplicate grab's 409 lands after it),
 * else the error of the grab, else the Open button.
 */
export function envelopeView<T>(won: T | undefined, error: unknown): { won: T } | { error: unknown } | null {
  if (won !== undefined) return { won };
  return error ? { error } : null;
}

function EnvelopeDialog({ envelope, left, envelopeId, isExpired = false, isTaken = false, onGone, onClose }: {
  envelope: TOpenEnvelope | null; left: number | null; envelopeId: string; isExpired?: boolean; isTaken?: boolean; onGone: (id: string) => void; onClose: () => void;
}) {
  const { t, i18n } = useTranslation('envelopes');
  const money = useMoney();
  const grab = useGrabEnvelope();
  // One grab of this envelope in flight: a double tap sent two and the second's ALREADY_GRABBED replaced the win.
  const flight = useSingleFlight<TGrabValue>();
  const view = envelopeView(flight.succeeded.get(envelopeId) ?? (grab.isSuccess ? grab.data : undefined), flight.error(grab.error, envelopeId));
  const message = envelope ? envelopeMessage(envelope.message, i18n.language) : null;
  // Ended while the dialog was open (expired, or every share taken by others): no Open that can only fail.
  const ended = endedOf(isExpired, isTaken ? 0 : left);
  const close = () => {
    if ((view && 'won' in view) || ended || (grab.error && isApiError(grab.error) && GONE.has(grab.error.code))) onGone(envelopeId);
    onClose();
  };
  // A dialog as ui/modal's are: Tab stays in it and Escape closes it (the host gives the focus back). Tab
  // went on to the page's links behind it, and Escape, heard only inside, then no longer closed it.
  const boxRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: React.KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
    } else wrapTab(e, boxRef.current);
  };
  return (
    <div className="rp-backdrop" role="presentation" onKeyDown={onKeyDown}>
      <div ref={boxRef} className="rp-dialog" role="dialog" aria-modal="true" aria-labelledby="rp-title" data-testid="envelope-dialog">
        <button type="button" className="rp-close" onClick={close} aria-label={t('close')} data-testid="envelope-close">×</button>
        <h2 id="rp-title" className="rp-title">{t('title')}</h2>
        <p className="rp-message" data-testid="envelope-message">{message ?? t('default_message')}</p>
        {view && 'won' in view ? (
          <div className="rp-result" data-testid="envelope-result">
            <span className="rp-result__label">{t('you_got')}</span>
            <span className="rp-result__amount" data-testid="envelope-amount" data-amount={view.won.amount}>{money(view.won.amount)}</span>
            <span className="rp-result__note">{t('added_to_balance')}</span>
            <button type="button" className="rp-done" onClick={close} data-testid="envelope-done" autoFocus>{t('done')}</button>
          </div>
        ) : view ? (
          <div className="rp-result rp-result--sorry" data-testid="envelope-error">
            <span className="rp-result__note">{t(`common:${errorKey(view.error)}`)}</span>
            <button type="button" className="rp-done" onClick={close} autoFocus>{t('done')}</button>
          </div>
        ) : ended && !grab.isPending ? (
          <div className="rp-result rp-result--sorry" data-testid="envelope-ended" data-ended={ended}>
            <span className="rp-result__note">{t(`common:${ended}`)}</span>
            <button type="button" className="rp-done" onClick={close} autoFocus>{t('done')}</button>
          </div>
        ) : (
          <>
            {envelope && <p className="rp-meta">{t('shares', { count: envelope.count, amount: money(envelope.totalAmount) })}</p>}
            {envelope && left !== null && (
              <p className="rp-meta rp-meta--left" data-testid="envelope-dialog-left" data-left={left}>{t('left_of', { left, count: envelope.count })}</p>
            )}
            <button type="button" className="rp-open" onClick={() => flight.run(envelopeId, () => grab.mutateAsync(envelopeId))} disabled={grab.isPending} data-testid="envelope-grab" autoFocus>
              {grab.isPending ? '…' : t('open')}
            </button>
          </>
        )}
      </div>
    </div>
  );
}
