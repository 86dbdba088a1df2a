import torch


class MLP(torch.nn.Module):
    """Three linear layers with GELU: the smallest model that exercises matmuls, biases and activations."""

    def __init__(self, features=32, hidden=64, classes=10):
        super().__init__()
        self.fc1 = torch.nn.Linear(features, hidden)
        self.fc2 = torch.nn.Linear(hidden, hidden)
        self.head = torch.nn.Linear(hidden, classes)

    def forward(self, x):
        x = torch.nn.functional.gelu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.head(x)


def load():
    return MLP(), (torch.randn(4, 32),)
