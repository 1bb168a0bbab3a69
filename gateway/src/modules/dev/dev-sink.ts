/** Messages the dev SMS and e-mail sinks captured, newest first. Never used in production mode. */
export type CapturedMessage = { to: string; channel: 'sms' | 'email'; subject: string | null; body: string; at: string };

export function createDevSink(limit = 500) {
  const messages: CapturedMessage[] = [];
  return {
    push(m: Omit<CapturedMessage, 'at'>) {
      messages.unshift({ ...m, at: new Date().toISOString() });
      if (messages.length > limit) messages.length = limit;
    },
    for(to: string): CapturedMessage[] {
      const key = to.trim().toLowerCase();
      return messages.filter((m) => m.to.toLowerCase() === key);
    },
  };
}
export type DevSink = ReturnType<typeof createDevSink>;
