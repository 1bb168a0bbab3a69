// Shim: the shell's home route loads this path; the agreed entry point is ../home-page.tsx.
export { HomePage } from '../home-page';
