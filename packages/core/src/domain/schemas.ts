// Runs anywhere (no runtime API): the NewPlant, Plant and Error schemas (valibot), which validate requests and generate the document.
import * as v from 'valibot';

// The schemas' types are spelled out, not inferred from valibot's calls: JSR builds
// its declarations and docs from explicit types only, and `deno publish` refuses an
// exported constant without one (runtime-tests/jsr.test.ts). The compiler checks that
// each call's result fits its spelling.

/** Smallest int64, -2^63. */
export const INT64_MIN = -(2n ** 63n);
/** Largest int64, 2^63 - 1. */
export const INT64_MAX = 2n ** 63n - 1n;

/** An int64 id, held as a `bigint` so that every value survives exactly. */
export const Int64Schema: v.SchemaWithPipe<
  readonly [v.BigintSchema<undefined>, v.MinValueAction<bigint, bigint, undefined>, v.MaxValueAction<bigint, bigint, undefined>]
> = v.pipe(v.bigint(), v.minValue(INT64_MIN), v.maxValue(INT64_MAX));

/** The interface's Plant: a required `name` and an optional `tag`, both strings. */
export const PlantSchema: v.ObjectSchema<
  { readonly name: v.StringSchema<undefined>; readonly tag: v.OptionalSchema<v.StringSchema<undefined>, undefined> },
  undefined
> = v.object({
  name: v.string(),
  tag: v.optional(v.string()),
});

/**
 * The interface's NewPlant: a Plant plus a required int64 `id`. Unknown keys are
 * dropped by `v.object`, so they are neither stored nor echoed.
 */
export const NewPlantSchema: v.ObjectSchema<{ readonly id: typeof Int64Schema } & (typeof PlantSchema)['entries'], undefined> = v.object({
  id: Int64Schema,
  ...PlantSchema.entries,
});

/** The interface's Error body: an int32 `error` code and a `message` for people. */
export const ErrorSchema: v.ObjectSchema<
  {
    readonly error: v.SchemaWithPipe<
      readonly [
        v.NumberSchema<undefined>,
        v.IntegerAction<number, undefined>,
        v.MinValueAction<number, number, undefined>,
        v.MaxValueAction<number, number, undefined>,
      ]
    >;
    readonly message: v.StringSchema<undefined>;
  },
  undefined
> = v.object({
  error: v.pipe(v.number(), v.integer(), v.minValue(-(2 ** 31)), v.maxValue(2 ** 31 - 1)),
  message: v.string(),
});

/** A stored and returned plant. */
export type Plant = v.InferOutput<typeof PlantSchema>;
/** A validated create request, with the exact id. */
export type NewPlant = v.InferOutput<typeof NewPlantSchema>;
/** The body of every non-200 answer. */
export type ErrorBody = v.InferOutput<typeof ErrorSchema>;
