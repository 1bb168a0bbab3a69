import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { openPopup } from '../../../lib/popups';
import { readStorage, writeStorage } from '../../../lib/storage';
import { Modal } from '../../../ui/modal';
import { usePopups } from '../api/get-popups';
import { markClosed, pageCount, pageOf, popupsFor, shouldShowPopup, wasClosed, type PopupAudience } from '../public-modal';
import { useHomeLanguage } from '../use-home-language';
import '../home.css';

const sessionStore = { get: (k: string) => readStorage('session', k), set: (k: string, v: string) => writeStorage('session', k, v) };

/**
 * publicModal: the announcement popups for logged-in or anonymous visitors, once per session per
 * key. A list of titles in pages of 6; choosing one shows it; the promotion button opens the
 * reward centre (a guest is asked to log in first). `blocked` while another popup is open.
 */
export function PublicModal({ isLoggedIn, blocked }: { isLoggedIn: boolean; blocked: boolean }) {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const language = useHomeLanguage();
  const audience: PopupAudience = isLoggedIn ? 'loggedIn' : 'anonymous';
  const [closedNow, setClosedNow] = useState<PopupAudience | null>(null);
  const closed = closedNow === audience || wasClosed(sessionStore, audience);
  const q = usePopups(language, audience, !closed);
  const items = popupsFor(q.data?.popup ?? [], audience);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(null);
  if (!shouldShowPopup({ items: items.length, closed, blocked })) return null;

  const close = () => {
    markClosed(sessionStore, audience);
    setClosedNow(audience);
    setSelected(null);
    setPage(1);
  };
  const toRewards = () => {
    close();
    if (isLoggedIn) navigate('/member?tab=rewardCenter');
    else openPopup('loginPopupModal');
  };
  const pages = pageCount(items.length);
  const current = Math.min(page, pages);
  // One popup: its text at once; several: the list first.
  const detail = items.length === 1 ? items[0]! : items.find((a) => a.id === selected) ?? null;
  return (
    <Modal name="publicModal" open onClose={close} title={t('popup.title')} width={560} height={200}>
      <div className="public-modal" data-testid="public-modal" data-audience={audience}>
        {detail ? (
          <article className="public-modal__detail" data-testid="public-modal-detail">
            <h3 className="public-modal__heading">{detail.title}</h3>
            <time className="public-modal__date">{detail.startDateStr}</time>
            <p className="public-modal__text">{detail.content}</p>
            {items.length > 1 && (
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => setSelected(null)} data-testid="public-modal-back">
                {t('popup.back')}
              </button>
            )}
          </article>
        ) : (
          <>
            <ul className="public-modal__list" data-testid="public-modal-list">
              {pageOf(items, current).map((a) => (
                <li key={a.id}>
                  <button type="button" className="public-modal__item" onClick={() => setSelected(a.id)} data-testid={`public-modal-item-${a.id}`}>
                    <span className="public-modal__item-title">{a.title}</span>
                    <time className="public-modal__date">{a.startDateStr}</time>
                  </button>
                </li>
              ))}
            </ul>
            {pages > 1 && (
              <div className="public-modal__pager">
                <button type="button" className="btn btn--ghost btn--sm" disabled={current <= 1} onClick={() => setPage(current - 1)} data-testid="public-modal-prev">
                  {t('popup.prev')}
                </button>
                <span className="muted small" data-testid="public-modal-page">{t('popup.page', { page: current, pages })}</span>
                <button type="button" className="btn btn--ghost btn--sm" disabled={current >= pages} onClick={() => setPage(current + 1)} data-testid="public-modal-next">
                  {t('popup.next')}
                </button>
              </div>
            )}
          </>
        )}
        <div className="public-modal__foot">
          <button type="button" className="btn btn--outline btn--sm" onClick={toRewards} data-testid="public-modal-promotion">
            {t('popup.promotion')}
          </button>
          <button type="button" className="btn btn--primary btn--sm" onClick={close} data-testid="public-modal-close">
            {t('popup.close')}
          </button>
        </div>
      </div>
    </Modal>
  );
}
