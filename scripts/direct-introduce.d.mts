/** Each installation trusts the other's demo CA (idempotent); says whether anything was added. */
export function introduce(firstUrl: string, secondUrl: string, password: string): Promise<boolean>;
