/** Refusals by the request limits: GraphQL errors naming the variable that sets the limit. */
import { createGraphQLError } from 'graphql-yoga';

/** `variable` is the environment variable that sets the limit, so an operator knows what to raise. */
export const limitExceeded = (variable: string, message: string, max: number, status = 400) =>
  createGraphQLError(message, { extensions: { code: 'LIMIT_EXCEEDED', limit: variable, max, http: { status } } });

/** A JSON response for refusals answered before Yoga parses anything (no GraphQL result yet). */
export function refusal(status: number, code: string, message: string, headers: Record<string, string> = {}, extensions: Record<string, unknown> = {}): Response {
  return new Response(JSON.stringify({ errors: [{ message, extensions: { code, ...extensions } }] }), {
    status,
    // The body was not read: close rather than drain it for the next request on this connection.
    headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close', ...headers },
  });
}
