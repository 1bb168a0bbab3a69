// React 18+ has useSyncExternalStore: react-i18next's import of the pre-18 shim resolves here
// (vite.config.ts, resolve.alias) instead of shipping the shim's fallback code.
export { useSyncExternalStore } from 'react';
