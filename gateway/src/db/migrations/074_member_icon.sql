-- A member's profile picture: one of the portal's drawn icons (contracts MEMBER_ICONS), null until picked.
ALTER TABLE members ADD COLUMN icon text CHECK (icon IS NULL OR icon ~ '^a[0-9]{2}$');
