import { serveBun } from './serve-bun.ts';

serveBun();
