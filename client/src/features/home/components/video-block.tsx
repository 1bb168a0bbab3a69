import { useEffect, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TBanner } from '@portal/contracts/api/content';
import { useWhitelabel } from '../../../lib/whitelabel';
import { useAnnouncements } from '../api/get-announcements';
import { bannerImageSrc, bannerTarget } from '../banner-link';
import { useHomeLanguage } from '../use-home-language';
import { toVideoEmbed } from '../video-url';
import { Icon } from './icons';

function EventBanner({ banner }: { banner: TBanner }) {
  const { t } = useTranslation('home');
  const image = <img className="home-event__img" src={bannerImageSrc(banner.url, t('banners.demoTag'), banner.title)} alt={banner.title} loading="lazy" />;
  const target = bannerTarget(banner);
  if (target?.kind === 'external') {
    return <a className="home-event" href={target.href} target="_blank" rel="noopener noreferrer">{image}</a>;
  }
  if (target?.kind === 'route') return <Link className="home-event" to={target.path}>{image}</Link>;
  return <div className="home-event">{image}</div>;
}

/** The brand video (YouTube only, spec section 8) beside the w_event banner. */
export function VideoBlock() {
  const { t } = useTranslation('home');
  const language = useHomeLanguage();
  const videoUrl = useWhitelabel().data?.brand.videoUrl;
  const eventBanner = useAnnouncements().data?.banners.find((b) => b.group === 'w_event');
  const embed = useMemo(() => (videoUrl ? toVideoEmbed(videoUrl, language) : null), [videoUrl, language]);

  useEffect(() => {
    if (embed && !embed.ok) console.error(`Video link rejected (${embed.reason}): ${videoUrl}`);
  }, [embed, videoUrl]);

  const src = embed?.ok ? embed.src : null;
  if (!src && !eventBanner) return null;

  return (
    <section className="home-video" data-testid="home-video" aria-label={t('video.title')}>
      {src && (
        <div className="home-video__player">
          <div className="home-video__head">
            <Icon name="PLAY" />
            <h2>{t('video.title')}</h2>
          </div>
          <div className="home-video__frame">
            <iframe
              src={src}
              title={t('video.title')}
              loading="lazy"
              allow="accelerometer; encrypted-media; gyroscope; picture-in-picture"
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
            />
          </div>
        </div>
      )}
      {eventBanner && <EventBanner banner={eventBanner} />}
    </section>
  );
}
