// One bounded poll for the integration suite (in the extension host) and the end-to-end
// suite (in plain Node): calls `check` until it returns a truthy value, and fails naming
// `what` (and the last error `check` threw) once `timeoutMs` has passed.
export async function poll<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs: number,
  intervalMs = 50,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(
    `Timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? ` (last error: ${last.message})` : ''}`,
  );
}
