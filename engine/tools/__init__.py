"""The analysis tools above the rules core: the simulator, its policies, the house-rule
lab, statistics, the paper table and the command line. They use the core through
`engine`; the core never imports them."""
