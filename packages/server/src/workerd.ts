export { runWorkerd } from './run-workerd.ts';
