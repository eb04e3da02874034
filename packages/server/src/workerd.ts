// The `@plant-store/server/workerd` entry: runs on Node, the launcher that starts workerd.
export { runWorkerd } from './workerd/run-workerd.ts';
