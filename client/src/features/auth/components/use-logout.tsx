import { useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useWhitelabel } from '../../../lib/whitelabel';
import { Modal } from '../../../ui/modal';
import { logout } from '../api/logout';
import { MEMBER_INFO_KEY } from '../api/get-member-info';
import { dismissFirstLoginPopups, endLocalSession } from '../lib/session-actions';
import { logoutMachine } from '../machines/logout.machine';

/**
 * Sign out with confirmation. `to` is where the user lands: '/' from the portal, '/agent' from the
 * agent pages. Render `dialog` once.
 */
export function useLogout(to: '/' | '/agent'): { requestLogout: () => void; logoutNow: () => void; dialog: ReactNode } {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data } = useWhitelabel();
  const deps = useRef({ navigate, to, merchant: data?.brand.merchantCode ?? null });
  deps.current = { navigate, to, merchant: data?.brand.merchantCode ?? null };
  const [machine] = useState(() =>
    logoutMachine.provide({
      actors: { logout: fromPromise(() => logout()) },
      actions: {
        endSession: () => {
          endLocalSession(deps.current.merchant);
          dismissFirstLoginPopups();
          queryClient.removeQueries({ queryKey: MEMBER_INFO_KEY });
          void queryClient.invalidateQueries();
        },
        leave: () => deps.current.navigate(deps.current.to),
      },
    }),
  );
  const [snapshot, send] = useMachine(machine);
  const isOpen = !snapshot.matches('idle');
  const isBusy = snapshot.matches('loggingOut');

  // Sized by its content (a minimum height of 150 px left an empty strip under the buttons).
  const dialog = (
    <Modal name="logoutConfirm" open={isOpen} onClose={() => send({ type: 'CANCEL' })} showClose={false} closeOnEscape width={340} height={0}>
      <div className="auth-dialog" data-testid="logout-dialog">
        {isBusy ? (
          <>
            <span className="auth-spinner auth-spinner--lg" aria-hidden="true" />
            <p role="status">{t('signing_out')}</p>
          </>
        ) : (
          <>
            <p>{t('logout_confirm')}</p>
            <div className="auth-dialog__actions">
              <button type="button" className="btn btn--ghost" onClick={() => send({ type: 'CANCEL' })} data-testid="logout-cancel">
                {t('cancel')}
              </button>
              <button type="button" className="btn btn--primary" onClick={() => send({ type: 'CONFIRM' })} data-testid="logout-confirm">
                {t('sign_out')}
              </button>
            </div>
          </>
        )}
      </div>
    </Modal>
  );
  // logoutNow: the player already chose to stop (the reality check's "Stop and sign out"): not asked again.
  return { requestLogout: () => send({ type: 'REQUEST' }), logoutNow: () => { send({ type: 'REQUEST' }); send({ type: 'CONFIRM' }); }, dialog };
}
