"""Every child process ttbench starts: spawn options and work in a fork (children.py), the worker line protocol
(client.py), temp folders that die with their owner (scratch.py), and the worker scripts run by path."""
