import { serveDeno } from './serve-deno.ts';

serveDeno();
