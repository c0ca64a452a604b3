/** One bad input: the resource kind, the inputs, and the property (and optionally reason) check must name. */
export interface BadInputCase {
  kind: string;
  title: string;
  inputs: Record<string, unknown>;
  property: string;
  reason?: RegExp;
}
