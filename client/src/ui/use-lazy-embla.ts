import { useEffect, useState } from 'react';
import type { EmblaCarouselType, EmblaOptionsType } from 'embla-carousel';
import type { AutoplayOptionsType } from 'embla-carousel-autoplay';
import { retryImport } from '../lib/retry-import';

/** Embla and its autoplay plugin, in a chunk of their own (about 9 KB gzip), fetched once. */
let loading: Promise<{ create: typeof import('embla-carousel').default; autoplay: typeof import('embla-carousel-autoplay').default }> | null = null;
const loadEmbla = () =>
  (loading ??= retryImport(() => Promise.all([import('embla-carousel'), import('embla-carousel-autoplay')]))
    .then(([core, plugin]) => ({ create: core.default, autoplay: plugin.default }))
    .catch((err: unknown) => {
      loading = null; // given up on (online, three failures): the next mount tries again
      throw err;
    }));

/**
 * Embla carousel, attached after the first paint (issue 12): the slides render as plain markup
 * at once (the first slide in view, as embla starts), and embla takes over the viewport when its
 * chunk arrives, so the first load of a page does not carry it. Same result as embla-carousel-react's
 * hook: a ref for the viewport and the API once running (undefined before). A change of options
 * starts a new instance; slide changes are embla's own (watchSlides).
 */
export function useLazyEmbla(
  options: EmblaOptionsType,
  autoplay: AutoplayOptionsType | null = null,
): [(node: HTMLElement | null) => void, EmblaCarouselType | undefined] {
  const [node, setNode] = useState<HTMLElement | null>(null);
  const [api, setApi] = useState<EmblaCarouselType | undefined>(undefined);
  const key = JSON.stringify([options, autoplay]);
  useEffect(() => {
    if (!node) return;
    let embla: EmblaCarouselType | undefined;
    let isGone = false;
    loadEmbla().then(
      ({ create, autoplay: plugin }) => {
        if (isGone) return;
        const [o, a] = JSON.parse(key) as [EmblaOptionsType, AutoplayOptionsType | null];
        embla = create(node, o, a ? [plugin(a)] : []);
        setApi(embla);
      },
      // Not fetched (offline): the carousel stays a static row, its first slide in view.
      () => undefined,
    );
    return () => {
      isGone = true;
      embla?.destroy();
      setApi(undefined);
    };
  }, [node, key]);
  return [setNode, api];
}
