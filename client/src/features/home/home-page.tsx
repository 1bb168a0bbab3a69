import { lazyNamed } from '../../app/lazy-page';
import { useGameActions } from './components/game-actions';
import { HomeBanners } from './components/home-banners';
import { HomeJackpot } from './components/home-jackpot';
import { HotGames } from './components/hot-games';
import { NoticeMarquee } from './components/notice-marquee';
import './home.css';

/** What is below the first screen arrives in its own chunk, after the top has painted. */
const HomeBelowFold = lazyNamed(() => import('./components/home-below-fold'), 'HomeBelowFold', null);

/** The home page (spec section 2): every block reads the gateway's data, except the decorative jackpot. */
export function HomePage() {
  const gameActions = useGameActions();
  return (
    <div className="home">
      <HomeBanners />
      <NoticeMarquee />
      <HomeJackpot />
      <HotGames actions={gameActions} />
      <HomeBelowFold actions={gameActions} />
      {gameActions.notice}
    </div>
  );
}
