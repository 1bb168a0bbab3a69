import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { errorKey } from '../../../lib/error-key';
import { Modal } from '../../../ui/modal';
import { freePlay } from '../api/free-play';
import { storeLogin } from '../lib/session-actions';

/** The header's "Free play" (FREEPLAY3): a trial session, then home. */
export function FreePlayButton({ className = 'btn btn--ghost btn--sm' }: { className?: string }) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const start = async () => {
    setBusy(true);
    try {
      storeLogin(await freePlay());
      void queryClient.invalidateQueries();
      navigate('/');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className={className} onClick={() => void start()} disabled={isBusy} data-testid="free-play-button">
        {t('free_play')}
      </button>
      <Modal name="freePlayError" open={error !== null} onClose={() => setError(null)} width={320} height={120}>
        <p className="auth-error" role="alert">
          {t(`common:${errorKey(error)}`)}
        </p>
      </Modal>
    </>
  );
}
