import { useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useAnnouncements } from '../api/get-announcements';
import { lazyNamed } from '../../../app/lazy-page';
import { Icon } from './icons';

/** The notices' modal is fetched when a notice is first clicked (issue 12: not in the first load). */
const NoticeModal = lazyNamed(() => import('./notice-modal'), 'NoticeModal', null);

/** Scroll speed of the notice bar, px per second. */
const MARQUEE_SPEED = 70;

export function NoticeMarquee() {
  const { t } = useTranslation('home');
  const { data } = useAnnouncements();
  const notices = data?.notices ?? [];
  const [openId, setOpenId] = useState<string | null>(null);
  // Mounted from the first click on (so it can animate out), not before.
  const [isModalMounted, setModalMounted] = useState(false);
  if (openId !== null && !isModalMounted) setModalMounted(true);
  const trackRef = useRef<HTMLDivElement>(null);
  const [durationS, setDurationS] = useState(30);

  // The track holds the notices twice; half its width is one full lap.
  useLayoutEffect(() => {
    const el = trackRef.current;
    if (!el) return;
    const measure = () => setDurationS(Math.max(12, el.scrollWidth / 2 / MARQUEE_SPEED));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [notices.length]);

  if (notices.length === 0) return null;

  const renderItems = (copy: number) =>
    notices.map((n) => (
      <button
        key={`${copy}-${n.id}`}
        type="button"
        className="home-marquee__item"
        onClick={() => setOpenId(n.id)}
        tabIndex={copy === 0 ? 0 : -1}
      >
        <span className="home-marquee__title">{n.title}</span>
        <span className="home-marquee__text">{n.content}</span>
      </button>
    ));

  return (
    <div className="home-marquee" data-testid="home-marquee">
      <span className="home-marquee__label">
        <Icon name="MEGAPHONE" />
        <span>{t('marquee.label')}</span>
      </span>
      <div className="home-marquee__viewport">
        <div ref={trackRef} className="home-marquee__track" style={{ '--marquee-duration': `${durationS}s` } as CSSProperties}>
          <div className="home-marquee__group">{renderItems(0)}</div>
          <div className="home-marquee__group" aria-hidden="true">{renderItems(1)}</div>
        </div>
      </div>
      {isModalMounted && <NoticeModal notices={notices} openId={openId} onClose={() => setOpenId(null)} />}
    </div>
  );
}
