/** `pulumi-grouproles`: what a Pulumi program imports. */
export {};
