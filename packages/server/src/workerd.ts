export { runWorkerd } from './workerd/run-workerd.ts';
