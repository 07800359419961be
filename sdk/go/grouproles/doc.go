// Permission roles of groups in the Group Roles service, and its visitor-presence lookups.
package grouproles
