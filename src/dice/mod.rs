//! Dice: the commit-reveal protocol and the streams dice are drawn from.
