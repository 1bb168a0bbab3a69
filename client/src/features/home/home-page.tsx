import { useGameActions } from './components/game-actions';
import { DescriptionBlocks } from './components/description-blocks';
import { DownloadBlock } from './components/download-block';
import { HomeBanners } from './components/home-banners';
import { HomeJackpot } from './components/home-jackpot';
import { HomeSliders } from './components/home-sliders';
import { HotGames } from './components/hot-games';
import { NoticeMarquee } from './components/notice-marquee';
import { VideoBlock } from './components/video-block';
import { WinnerBoard } from './components/winner-board';
import './home.css';

/** The home page (spec section 2): every block reads the gateway's data, except the decorative jackpot. */
export function HomePage() {
  const gameActions = useGameActions();
  return (
    <div className="home">
      <HomeBanners />
      <NoticeMarquee />
      <HomeJackpot />
      <HotGames actions={gameActions} />
      <HomeSliders actions={gameActions} />
      <div className="home-split">
        <WinnerBoard />
        <VideoBlock />
      </div>
      <DescriptionBlocks />
      <DownloadBlock />
      {gameActions.notice}
    </div>
  );
}
