import { THEMES } from '@portal/contracts/domain/constants';
import type { Theme } from '@portal/contracts/domain/constants';
import { createStore, useStore } from './store';
import { readStorage, writeStorage } from './storage';

/** Theme choice, remembered in localStorage 'theme' (not sensitive), applied on <html data-theme>. */
const THEME_KEY = 'theme';

function isTheme(v: string | null): v is Theme {
  return v !== null && (THEMES as readonly string[]).includes(v);
}

const stored = readStorage('local', THEME_KEY);
const themeStore = createStore<Theme>(isTheme(stored) ? stored : 'dark');

export function applyTheme(theme: Theme): void {
  if (typeof document !== 'undefined') document.documentElement.dataset.theme = theme;
}

export function setTheme(theme: Theme): void {
  writeStorage('local', THEME_KEY, theme);
  applyTheme(theme);
  themeStore.set(theme);
}

export function getTheme(): Theme {
  return themeStore.get();
}

export function useTheme(): Theme {
  return useStore(themeStore);
}
