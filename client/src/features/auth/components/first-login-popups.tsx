import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { usePopup } from '../../../lib/popups';
import { useIsLoggedIn } from '../../../lib/session';
import { Modal } from '../../../ui/modal';
import { useFirstLoginPopups } from '../api/get-first-login-popups';
import { dismissFirstLoginPopups, useFirstLoginPending } from '../lib/session-actions';

/**
 * First login: the announcements' execution-F popups, one after another, once no other popup (the
 * forced password change, say) is open.
 */
export function FirstLoginPopups({ lang }: { lang: LanguageCode }) {
  const { t } = useTranslation('auth');
  const isPending = useFirstLoginPending();
  const isLoggedIn = useIsLoggedIn();
  const popup = usePopup();
  const [index, setIndex] = useState(0);
  const { data } = useFirstLoginPopups(lang, isPending && isLoggedIn);
  if (!isPending || !isLoggedIn || popup !== null || !data) return null;
  const item = data[index];
  const close = () => {
    setIndex(0);
    dismissFirstLoginPopups();
  };
  if (!item) {
    if (data.length === 0) queueMicrotask(close);
    return null;
  }
  const isLast = index >= data.length - 1;
  return (
    <Modal name="firstLoginPopup" open onClose={close} title={item.title} width={420} height={200}>
      <div className="auth-announcement" data-testid="first-login-popup">
        <p className="auth-announcement__text">{item.content}</p>
        <div className="auth-announcement__foot">
          {data.length > 1 && (
            <span className="muted small">
              {index + 1} / {data.length}
            </span>
          )}
          <button type="button" className="btn btn--primary btn--sm" onClick={isLast ? close : () => setIndex((i) => i + 1)}>
            {isLast ? t('got_it') : t('next')}
          </button>
        </div>
      </div>
    </Modal>
  );
}
