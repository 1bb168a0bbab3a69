/** Removes the static loader of index.html once the app has something to show. */
export function hideBootLoader(): void {
  if (typeof document === 'undefined') return;
  const el = document.getElementById('boot-loader');
  if (!el || el.dataset.hidden === 'true') return;
  el.dataset.hidden = 'true';
  el.addEventListener('transitionend', () => el.remove(), { once: true });
  window.setTimeout(() => el.remove(), 600);
}
