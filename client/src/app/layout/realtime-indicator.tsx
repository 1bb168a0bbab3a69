import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useRealtimeConnection } from '../../realtime/realtime-context';
import type { ConnectionState } from '../../realtime/realtime-client';

const subscribeOnline = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};
/** Whether the browser says it has a network (a server render says yes). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => navigator.onLine, () => true);
}

/**
 * What the dot says: on, connecting (the first connection of the page), reconnecting (a connection lost),
 * or offline (the device has no network). The first connection and an offline device both read
 * "Reconnecting..." before.
 */
export function realtimeLabelKey(state: ConnectionState, online: boolean): string {
  if (!online) return 'live_offline';
  return state === 'connected' ? 'live_connected' : state === 'connecting' ? 'live_connecting' : 'live_reconnecting';
}

/** A dot showing whether live updates are flowing; offline, a notice every screen size shows (the dot is hidden on phones). */
export function RealtimeIndicator() {
  const { t } = useTranslation('common');
  const { state } = useRealtimeConnection();
  const online = useOnline();
  const label = t(realtimeLabelKey(state, online));
  return (
    <>
      <span className={`rt-dot rt-dot--${online ? state : 'offline'}`} role="status" aria-label={label} title={label} data-realtime={state}>
        <span className="sr-only">{label}</span>
      </span>
      {!online && (
        <p className="offline-notice" role="status" data-testid="offline-notice">
          {t('live_offline_notice')}
        </p>
      )}
    </>
  );
}
