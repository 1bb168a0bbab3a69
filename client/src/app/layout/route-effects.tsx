import { useEffect, useRef } from 'react';
import { useNavigation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { hideBootLoader } from '../../lib/boot-loader';
import { documentTitle, usePageSubTitleValue } from '../../lib/page-title';
import { useWhitelabel } from '../../lib/whitelabel';
import { useCurrentRoute } from '../route-handle';

/**
 * After each navigation: scroll to the top when the route name changes, hide the loader, set the
 * document title.
 */
export function RouteEffects() {
  const { t } = useTranslation('common');
  const { name, handle } = useCurrentRoute();
  const navigation = useNavigation();
  const { data } = useWhitelabel();
  const previous = useRef<string | null>(null);
  const isIdle = navigation.state === 'idle';

  useEffect(() => {
    if (previous.current !== null && previous.current !== name) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
    previous.current = name;
  }, [name]);

  useEffect(() => {
    if (isIdle) hideBootLoader();
  }, [isIdle, name]);

  const title = handle ? t(handle.titleKey) : '';
  const site = data?.brand.siteName ?? '';
  const sub = usePageSubTitleValue();
  useEffect(() => {
    document.title = documentTitle(sub, title, site);
  }, [sub, title, site]);

  return isIdle ? null : <div className="route-progress" role="progressbar" aria-label={t('loading')} />;
}
