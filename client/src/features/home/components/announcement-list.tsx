import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { FormMessage } from '../../../ui/form-field';
import { useAnnouncements } from '../api/get-announcements';
import { toggleExpanded } from '../notice-list';
import '../home.css';

/** The notices as an inline list (one expanded at a time): the agent centre's announcement item. */
export function AnnouncementList({ title }: { title: string }) {
  const { t } = useTranslation('home');
  const q = useAnnouncements();
  const notices = q.data?.notices ?? [];
  const [expanded, setExpanded] = useState<string | null>(null);
  return (
    <div className="mc-card" data-testid="announcement-list">
      <h1 className="mc-title">{title}</h1>
      {q.error && <FormMessage message={errorMessage(q.error)} />}
      {q.data && notices.length === 0 && <p className="cx-empty">{t('notice.empty')}</p>}
      <ul className="notice-list">
        {notices.map((n) => {
          const isOpen = expanded === n.id;
          return (
            <li key={n.id} className={`notice-list__item${isOpen ? ' is-open' : ''}`}>
              <button type="button" className="notice-list__head" aria-expanded={isOpen} onClick={() => setExpanded((cur) => toggleExpanded(cur, n.id))}>
                <span className="notice-list__title">{n.title}</span>
                <time className="notice-list__date">{n.startDateStr}</time>
                <svg className="notice-list__chevron" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 9l6 6 6-6" /></svg>
              </button>
              <div className="notice-list__body" hidden={!isOpen}>{n.content}</div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
