public enum SystemdPlaceholder {}
