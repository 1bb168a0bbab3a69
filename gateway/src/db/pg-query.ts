import pg from 'pg';

/**
 * What db.ts and group-commit.ts use of node-postgres' Query and Connection beyond its typings: the
 * hooks through which a Query writes its protocol messages (prepare) and reads its replies. Both put
 * several statements before one Sync (a prelude with a statement, a batch of statements), which pg's
 * public API does not offer.
 */
export type PgConnection = {
  parse(c: object): void;
  bind(c: object): void;
  describe(c: object): void;
  execute(c: object): void;
  sync(): void;
  parsedStatements: Record<string, string>;
};

type PgQueryInternals = {
  requiresPreparation(): boolean;
  prepare(connection: PgConnection): void;
  /** Writes the statement's Execute and the Sync (pg's Query calls it at the end of prepare). */
  _getRows(connection: PgConnection, rows?: number): void;
  handleDataRow(msg: unknown): void;
  handleCommandComplete(msg: unknown, connection: PgConnection): void;
};

/** pg's Query, typed with the internals above; R is what its callback gets (one Result, or one per statement). */
export const PgQuery = pg.Query as unknown as new <R = pg.QueryResult>(
  config: pg.QueryConfig,
  values: undefined,
  callback: (err: Error | null, res: R) => void,
) => PgQueryInternals & pg.Submittable;
