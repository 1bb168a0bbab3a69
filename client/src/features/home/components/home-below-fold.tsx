import { DescriptionBlocks } from './description-blocks';
import { DownloadBlock } from './download-block';
import type { GameActions } from './game-actions';
import { HomeSliders } from './home-sliders';
import { VideoBlock } from './video-block';
import { WinnerBoard } from './winner-board';

/**
 * The home page's blocks below the first screen (game sliders, winners, video, descriptions,
 * download): a chunk of their own, fetched while the top of the page paints (issue 12).
 */
export function HomeBelowFold({ actions }: { actions: GameActions }) {
  return (
    <>
      <HomeSliders actions={actions} />
      <div className="home-split">
        <WinnerBoard />
        <VideoBlock />
      </div>
      <DescriptionBlocks />
      <DownloadBlock />
    </>
  );
}
