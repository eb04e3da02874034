// Runs wherever a standalone server or its launcher writes a log line: a type only, shared by the settings and every writer of lines.

/** How log lines are written: `text`, as `POST /plants 200 0.4ms`, or `json`, one object per line. */
export type LogFormat = 'text' | 'json';
