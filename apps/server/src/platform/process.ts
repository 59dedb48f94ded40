import { serializeError } from './errors.ts';

// A bug that escapes every handler still ends the process (the supervisor restarts it), but it is logged
// through pino with the PHI-safe serializer first: Node's own report would print a failed query's parameters.
export function exitOnUncaughtErrors(logger: { fatal(obj: object, msg: string): void }): void {
  const exit = (what: string) => (error: unknown) => {
    logger.fatal({ err: serializeError(error) }, what);
    process.exit(1);
  };
  process.on('uncaughtException', exit('uncaught exception; exiting'));
  process.on('unhandledRejection', exit('unhandled promise rejection; exiting'));
}
