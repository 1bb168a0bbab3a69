import { useTranslation } from 'react-i18next';
import { useRealtimeConnection } from '../../realtime/realtime-context';

/** A dot showing whether live updates are flowing. */
export function RealtimeIndicator() {
  const { t } = useTranslation('common');
  const { state } = useRealtimeConnection();
  const label = state === 'connected' ? t('live_connected') : t('live_reconnecting');
  return (
    <span className={`rt-dot rt-dot--${state}`} role="status" aria-label={label} title={label} data-realtime={state}>
      <span className="sr-only">{label}</span>
    </span>
  );
}
