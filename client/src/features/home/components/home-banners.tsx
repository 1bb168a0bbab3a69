import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TBanner } from '@portal/contracts/api/content';
import { LIMITS } from '@portal/contracts/domain/constants';
import { Carousel } from '../../../ui/carousel';
import { bannerCarouselBehaviour } from '../../../ui/carousel-options';
import { useAnnouncements } from '../api/get-announcements';
import { bannerImageSrc, bannerTarget } from '../banner-link';

const BANNER_TIMING = { autoplayMs: LIMITS.BANNER_AUTOPLAY_MS, transitionMs: LIMITS.BANNER_TRANSITION_MS };

function BannerSlide({ banner, isFirst, demoTag }: { banner: TBanner; isFirst: boolean; demoTag: string }) {
  const image = (
    <img
      className="home-banner__img"
      src={bannerImageSrc(banner.url, demoTag, banner.title)}
      alt={banner.title}
      loading={isFirst ? 'eager' : 'lazy'}
      fetchPriority={isFirst ? 'high' : 'auto'}
      draggable={false}
    />
  );
  const target = bannerTarget(banner);
  if (target?.kind === 'external') {
    return (
      <a className="home-banner" href={target.href} target="_blank" rel="noopener noreferrer">
        {image}
      </a>
    );
  }
  if (target?.kind === 'route') {
    return (
      <Link className="home-banner" to={target.path}>
        {image}
      </Link>
    );
  }
  return <div className="home-banner">{image}</div>;
}

export function HomeBanners() {
  const { t } = useTranslation('home');
  const { data, isPending } = useAnnouncements();
  const banners = useMemo(() => (data?.banners ?? []).filter((b) => b.group === 'w_home'), [data]);
  const behaviour = useMemo(() => bannerCarouselBehaviour(banners.length, BANNER_TIMING), [banners.length]);

  if (isPending) return <div className="home-banners home-banners--loading skeleton" data-testid="home-banners" />;
  if (banners.length === 0) return null;

  return (
    <Carousel
      className="home-banners"
      testId="home-banners"
      items={banners}
      getKey={(b) => b.id}
      behaviour={behaviour}
      labels={{
        region: t('banners.region'),
        carouselRole: t('carousel.role'),
        slideRole: t('carousel.slideRole'),
        prev: t('carousel.prev'),
        next: t('carousel.next'),
        slide: (n) => t('carousel.slide', { n, total: banners.length }),
        goTo: (n) => t('carousel.goTo', { n }),
      }}
      renderSlide={(banner, i) => <BannerSlide banner={banner} isFirst={i === 0} demoTag={t('banners.demoTag')} />}
    />
  );
}
