import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@portal/contracts/domain/constants';
import { Carousel } from '../../../ui/carousel';
import { stripCarouselBehaviour } from '../../../ui/carousel-options';
import { GameCard } from '../../../ui/game-card';
import { useHomeSlides } from '../api/get-game-menus';
import { gamePagePath } from '../banner-link';
import type { HomeSlide } from '../home-slides';
import type { GameActions } from './game-actions';
import { Icon } from './icons';
import { SectionTitle } from './section-title';

/** Width of one game item in the sliders, px. */
const SLIDE_ITEM_WIDTH = 176;

function HomeSlider({ slide, actions }: { slide: HomeSlide; actions: GameActions }) {
  const { t } = useTranslation('home');
  const behaviour = useMemo(() => stripCarouselBehaviour(), []);
  const label = t(`gameType.${slide.gameType}`);
  return (
    <section className="home-section home-slider" data-testid={`home-slider-${slide.gameType}`}>
      <SectionTitle
        icon={<Icon name={slide.gameType} />}
        title={label}
        action={
          <Link className="home-title__more" to={gamePagePath(slide.gameType)}>
            {t('slider.viewAll')}
            <Icon name="ARROW" />
          </Link>
        }
      />
      <Carousel
        className="home-slider__strip"
        items={slide.games}
        getKey={(g) => g.nodeId}
        behaviour={behaviour}
        gap={LIMITS.SLIDE_SPACING}
        slideWidth={`${SLIDE_ITEM_WIDTH}px`}
        labels={{
          region: label,
          carouselRole: t('carousel.role'),
          slideRole: t('carousel.slideRole'),
          prev: t('carousel.prev'),
          next: t('carousel.next'),
          slide: (n) => t('carousel.slide', { n, total: slide.games.length }),
          goTo: (n) => t('carousel.goTo', { n }),
        }}
        renderSlide={(game) => (
          <GameCard
            game={game}
            labels={actions.labels}
            onPlay={actions.onPlay}
            onTrial={actions.onTrial}
            onToggleFavourite={actions.onToggleFavourite}
            favouriteDisabledHint={actions.favouriteDisabledHint}
            isFavourite={actions.favouriteIds.has(game.nodeId)}
            simulatedLabel={actions.simulatedLabel(game)}
          />
        )}
      />
    </section>
  );
}

export function HomeSliders({ actions }: { actions: GameActions }) {
  const { data: slides, isPending } = useHomeSlides();
  if (isPending) return <div className="home-section home-slider-skeleton skeleton" />;
  return (
    <>
      {(slides ?? []).map((slide) => (
        <HomeSlider key={slide.gameType} slide={slide} actions={actions} />
      ))}
    </>
  );
}
