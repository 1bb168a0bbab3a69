import { createStore, useStore } from './store';

/**
 * Global popups named by the spec. One is open at a time; any layer may open one (a feature opens
 * the login popup when a guest tries to play).
 */
export type PopupName = 'loginPopupModal' | 'registerModal' | 'forgetPassModal' | 'changePassModal' | 'helpModal' | 'agentCentre' | 'rgFamilyModal' | 'chatRoom';
export type PopupOptions = {
  /** Help topic to scroll to. */
  anchor?: string;
  /** changePassModal: the password must change now (default password or expired); the modal cannot be dismissed. */
  forced?: boolean;
};
export type PopupState = ({ name: PopupName } & PopupOptions) | null;

const popupStore = createStore<PopupState>(null);

export function openPopup(name: PopupName, options: PopupOptions = {}): void {
  popupStore.set({ name, ...options });
}

export function closePopup(): void {
  popupStore.set(null);
}

export function usePopup(): PopupState {
  return useStore(popupStore);
}
