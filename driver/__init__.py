"""h3sprite driver: post-process clips into sheets; run joblists overnight."""
