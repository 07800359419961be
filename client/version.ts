/** This package's version, sent in the User-Agent. A test checks it against package.json. */
export const PACKAGE_VERSION = "0.1.0";
export const PACKAGE_NAME = "pulumi-grouproles";
