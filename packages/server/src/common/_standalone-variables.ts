// Runs wherever a standalone server reads its settings or prints its usage: plain data.

/**
 * The environment variable that marks a process as one of several, started
 * by a supervisor (Bun and Deno; node:cluster has its own mark): its value is
 * the supervisor's pid.
 */
export const WORKER_OF = 'PLANT_STORE_WORKER_OF';

/** The runtimes a standalone launcher runs on. */
export type Runtime = 'Node' | 'Bun' | 'Deno' | 'workerd';

/** One environment variable a standalone server reads. */
export interface StandaloneVariable {
  readonly name: string;
  /** What applies when it is unset, in words. */
  readonly default: string;
  readonly meaning: string;
  /** Set when only some runtimes read it. */
  readonly only?: readonly Runtime[];
}

/**
 * Every variable a standalone server reads, in the order `--help` lists them.
 * One table, so that the usage text, Deno's `--allow-env` list, the warning
 * for a variable that is none of these and the documentation cannot drift
 * apart.
 */
export const STANDALONE_VARIABLES: readonly StandaloneVariable[] = [
  { name: 'HOST', default: '127.0.0.1', meaning: 'interface to listen on' },
  { name: 'PORT', default: '8080', meaning: 'port, 0 to 65535; 0 picks a free one' },
  {
    name: 'PLANT_STORE_TOKENS',
    default: 'none (one is made and printed)',
    meaning: 'accepted bearer tokens, comma-separated; set with none in it, the start stops',
  },
  {
    name: 'PLANT_STORE_JWT_ISSUER',
    default: 'unset (fixed tokens)',
    meaning: 'verify JWTs instead of PLANT_STORE_TOKENS: the iss they must carry, e.g. https://tenant.eu.auth0.com/',
  },
  { name: 'PLANT_STORE_JWT_AUDIENCE', default: 'unset', meaning: 'with PLANT_STORE_JWT_ISSUER: the aud a JWT must name; comma-separated for several' },
  { name: 'PLANT_STORE_JWKS_URL', default: 'unset', meaning: "with PLANT_STORE_JWT_ISSUER: the issuer's keys (its jwks_uri)" },
  { name: 'PLANT_STORE_JWT_SCOPE', default: 'unset (no scope required)', meaning: 'scopes a JWT must grant in scope or scp, space-separated; else 403' },
  { name: 'PLANT_STORE_JWKS_COOLDOWN', default: '30', meaning: 'seconds between two fetches of the JWKS at most, 0 to 3600' },
  {
    name: 'PLANT_STORE_DATABASE_URL',
    default: 'sqlite:.plant-store/plants.db (memory on Node 20; D1 on workerd)',
    meaning: 'where plants are kept: memory:, sqlite:PATH, a file: URL, postgres://… or rqlite://host:port,… (every node)',
  },
  { name: 'PLANT_STORE_ACCESS_LOG', default: 'on', meaning: 'switch: off turns the access log off' },
  { name: 'PLANT_STORE_LOG_FORMAT', default: 'text', meaning: 'json writes every log line as one JSON object' },
  {
    name: 'PLANT_STORE_LOG_LEVEL',
    default: 'info',
    meaning: 'least severe line written: error, warn, info (startup and access log) or debug',
  },
  {
    name: 'PLANT_STORE_METRICS',
    default: 'on',
    meaning: 'switch: off turns the Prometheus metrics at /metrics (behind the token) off',
  },
  {
    name: 'PLANT_STORE_CORS_ORIGINS',
    default: 'unset (CORS off)',
    meaning: 'origins whose pages may call it, comma-separated (https://app.example.com), or * for any',
  },
  { name: 'PLANT_STORE_DOCS', default: 'on', meaning: 'switch: off turns the API reference page at /docs off' },
  {
    name: 'PLANT_STORE_WORKERS',
    default: '1',
    meaning: 'processes serving the one port, 1 to 256, over a store they share',
    only: ['Node', 'Bun', 'Deno'],
  },
  {
    name: 'PLANT_STORE_MAX_IN_FLIGHT',
    default: '256',
    meaning: 'requests one process holds at once; past it, 503 (1503) with Retry-After at once; 0 for no bound',
  },
  {
    name: 'PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS',
    default: '1000',
    meaning: 'event-loop delay one process tolerates; past it, 503 (1503) with Retry-After at once; 0 for no bound',
  },
  {
    name: 'PLANT_STORE_RATE_LIMIT',
    default: 'off',
    meaning: 'creates per token per window, LIMIT/SECONDS (100/60); past it, 429 (1404); counted per process',
  },
  {
    name: 'PLANT_STORE_WRITE_TIMEOUT_MS',
    default: '30000',
    meaning: 'how long an answer may wait for its client to take any of its bytes before the connection is cut; 0 for no bound',
  },
  {
    name: 'PLANT_STORE_TLS_CERT',
    default: 'unset (plain HTTP)',
    meaning: 'with PLANT_STORE_TLS_KEY: PEM file of the certificate (its chain after it) to serve HTTPS with; reread on SIGHUP and when it changes',
  },
  { name: 'PLANT_STORE_TLS_KEY', default: 'unset', meaning: "with PLANT_STORE_TLS_CERT: PEM file of the certificate's private key" },
  {
    name: 'PLANT_STORE_TLS_PROXY',
    default: 'off',
    meaning: 'switch: on says TLS ends at a proxy in front, which silences the warning of a plain-HTTP start on an address other than loopback',
  },
  { name: 'PLANT_STORE_D1_DIR', default: '.plant-store/d1', meaning: 'directory of the D1 database', only: ['workerd'] },
];
