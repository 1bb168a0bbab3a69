/**
 * The bottom-left corner the agents' live notices share (a contract answered or ended, a payout):
 * one under the other in one fixed stack. Each used to be fixed at the same spot, so a payout notice
 * arriving beside a contract notice covered it, close button and all. Created on first use.
 */
export function noticeStack(): HTMLElement {
  let el = document.getElementById('ag-notice-stack');
  if (!el) {
    el = document.createElement('div');
    el.id = 'ag-notice-stack';
    el.className = 'ag-notice-stack';
    document.body.appendChild(el);
  }
  return el;
}
