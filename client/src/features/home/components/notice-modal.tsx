import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAnnouncement } from '@portal/contracts/api/content';
import { Modal } from '../../../ui/modal';
import { toggleExpanded } from '../notice-list';
import { useUniqueId } from '../../../lib/unique-id';

type NoticeModalProps = {
  notices: readonly TAnnouncement[];
  /** The clicked notice; the modal is open while set. */
  openId: string | null;
  onClose: () => void;
};

export function NoticeModal({ notices, openId, onClose }: NoticeModalProps) {
  const { t } = useTranslation('home');
  const [expanded, setExpanded] = useState<string | null>(openId);
  const baseId = useUniqueId('notice');

  useEffect(() => {
    if (openId !== null) setExpanded(openId);
  }, [openId]);

  return (
    <Modal name="notice" open={openId !== null} onClose={onClose} title={t('notice.title')} width={640} height={320}>
      <ul className="notice-list">
        {notices.map((n) => {
          const isOpen = expanded === n.id;
          const panelId = `${baseId}-${n.id}`;
          return (
            <li key={n.id} className={`notice-list__item${isOpen ? ' is-open' : ''}`}>
              <button
                type="button"
                className="notice-list__head"
                aria-expanded={isOpen}
                aria-controls={panelId}
                onClick={() => setExpanded((cur) => toggleExpanded(cur, n.id))}
              >
                <span className="notice-list__title">{n.title}</span>
                <time className="notice-list__date">{n.startDateStr}</time>
                <svg className="notice-list__chevron" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 9l6 6 6-6" /></svg>
              </button>
              <div id={panelId} className="notice-list__body" hidden={!isOpen}>
                {n.content}
              </div>
            </li>
          );
        })}
      </ul>
    </Modal>
  );
}
