/** A fault the sandbox injects into its next matching answers (tests and demos). */
export interface Fault {
  /** `api`: query, CDC and CompanyInfo; `token`: the token endpoint (`slow` delays it, `hold` holds it at a gate). */
  target: 'api' | 'token';
  kind: 'throttle' | 'expired_token' | 'server_error' | 'slow' | 'hold' | 'invalid_grant';
  /** How many answers it affects. */
  count: number;
  /** For `slow`: delay before answering. */
  delayMs?: number;
  /** Skip this many matching requests before the fault starts (for example fail page 3). */
  after?: number;
  /** For `server_error`: the status answered (500 unless set, e.g. 503). */
  status?: number;
  /** For `throttle` and `server_error`: a `Retry-After` header, in seconds. */
  retryAfterSeconds?: number;
  /**
   * For `server_error` on the token endpoint: the grant is carried out first (a
   * refresh token is rotated), then the error is answered, as when the answer is
   * lost on its way back.
   */
  afterGrant?: boolean;
  /** For `hold`: the request waits here until the test opens the gate, so a test acts while a call is in flight, without timing guesses. */
  gate?: Gate;
}

/** Where a held request waits: `reached` settles when one arrives, and the request is answered once `open()` is called. */
export interface Gate {
  reached: Promise<void>;
  open(): void;
  /** Internal: called by the sandbox when a request arrives; resolves when the gate opens. */
  pass(): Promise<void>;
}

export function createGate(): Gate {
  let arrive!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((r) => (arrive = r));
  const opened = new Promise<void>((r) => (open = r));
  return {
    reached,
    open,
    pass: () => {
      arrive();
      return opened;
    },
  };
}

/** The delay a `slow` or `hold` fault puts before an answer (one place for both endpoints). */
export async function delayFor(fault: Fault | undefined): Promise<void> {
  if (fault?.kind === 'slow') await new Promise((r) => setTimeout(r, fault.delayMs ?? 1000));
  if (fault?.kind === 'hold') await fault.gate?.pass();
}

export class FaultQueue {
  private faults: Fault[] = [];

  add(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  clear(): void {
    this.faults = [];
  }

  /** The fault to apply to this request, if any; consumes one use. */
  take(target: Fault['target']): Fault | undefined {
    for (const f of this.faults) {
      if (f.target !== target || f.count <= 0) continue;
      if ((f.after ?? 0) > 0) {
        f.after! -= 1;
        continue;
      }
      f.count -= 1;
      return f;
    }
    return undefined;
  }
}

const time = () => new Date().toISOString();

/** Error bodies in the provider's `Fault` shape (docs/provider-facts.md §4; 401 uses its lowercase variant). */
export const faultBodies = {
  unauthorized: (detail: string) => ({
    warnings: null,
    intuitObject: null,
    fault: {
      error: [{ message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401', detail, code: '3200', element: null }],
      type: 'AUTHENTICATION',
    },
    time: time(),
  }),
  throttled: () => ({
    Fault: {
      Error: [
        { Message: 'message=ThrottleExceeded; errorCode=003001; statusCode=429', Detail: 'The request limit was reached.', code: '3001' },
      ],
      type: 'SERVICE',
    },
    time: time(),
  }),
  serverError: () => ({
    Fault: {
      Error: [
        {
          Message: 'An application error has occurred while processing your request',
          Detail: 'System Failure Error: sandbox injected fault',
          code: '10000',
        },
      ],
      type: 'SystemFault',
    },
    time: time(),
  }),
  validation: (detail: string, code = '4000') => ({
    Fault: { Error: [{ Message: 'Error parsing query', Detail: `QueryParserError: ${detail}`, code }], type: 'ValidationFault' },
    time: time(),
  }),
  forbidden: () => ({
    Fault: {
      Error: [
        { Message: 'message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403', Detail: 'Unknown company', code: '3100' },
      ],
      type: 'SECURITY',
    },
    time: time(),
  }),
};
