import { createStore, useStore } from './store';

/**
 * Global popups named by the spec. One is open at a time; any layer may open one (a feature opens
 * the login popup when a guest tries to play).
 */
export type PopupName = 'loginPopupModal' | 'registerModal' | 'helpModal';
export type PopupState = { name: PopupName; anchor?: string } | null;

const popupStore = createStore<PopupState>(null);

export function openPopup(name: PopupName, options: { anchor?: string } = {}): void {
  popupStore.set({ name, ...options });
}

export function closePopup(): void {
  popupStore.set(null);
}

export function usePopup(): PopupState {
  return useStore(popupStore);
}
