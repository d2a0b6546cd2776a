import { DomainError } from '../errors.js';

/**
 * What became of one webhook delivery, for svc_webhook_deliveries_total: from
 * the answer the intake decided (an acknowledgment, or its refusal), never from
 * the HTTP response. An acknowledgment is recorded (its observation stored),
 * a duplicate, without payment effect, or rejected (its observation refused); a
 * refusal is named by its issue code (invalid_signature, endpoint_not_found, …)
 * or its error type; anything unexpected is `failed`.
 */
export function deliveryOutcome(answer: { ack: { duplicate: boolean; status: string } } | { error: unknown }): string {
  if ('ack' in answer) {
    const { ack } = answer;
    if (ack.duplicate) return 'duplicate';
    return ack.status === 'rejected' || ack.status === 'no_payment_effect' ? ack.status : 'recorded';
  }
  const err = answer.error;
  if (!(err instanceof DomainError)) return 'failed';
  return err.issues[0]?.code ?? err.type;
}
