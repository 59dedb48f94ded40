// Role and feature checks shared by route guards and the sidebar (end-user §6).
export function hasAnyRole(userRoles: readonly string[], required: readonly string[]): boolean {
  return required.length === 0 || required.some((role) => userRoles.includes(role));
}

export function hasAllFeatures(enabled: ReadonlySet<string>, required: readonly string[]): boolean {
  return required.every((feature) => enabled.has(feature));
}
